"""Notifications: the letters written for each recipient, the e-mail and webhook channels, and the sender.

- :mod:`~arbitre.server.notify.letters` writes a notification's text from its
  recipient's own view, in the recipient's language and time zone;
- :mod:`~arbitre.server.notify.mail` builds and sends e-mails over SMTP
  (``ARBITRE_SMTP_URL``), with a one-click unsubscribe link;
- :mod:`~arbitre.server.notify.webhook` POSTs a notification to its recipient's own URL,
  connecting to the address it checked (:mod:`~arbitre.server.notify.addresses` says which
  addresses may be called);
- :mod:`~arbitre.server.notify.sender` runs the loop that writes the "deadline soon"
  notifications when their time comes and starts the sending lanes
  (:mod:`~arbitre.server.notify.lanes`: e-mail apart, a bounded pool for webhooks), which claim
  the outbox's deliveries and send each once, from any number of server processes, every exchange
  under a wall-clock deadline (:mod:`~arbitre.server.notify.deadline`).

The outbox itself (rows written in the transaction of the change) is
:mod:`arbitre.store.outbox`.
"""
