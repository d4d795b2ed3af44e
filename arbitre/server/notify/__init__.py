"""Notifications: the letters written for each recipient, the e-mail and webhook channels, and the sender.

- :mod:`~arbitre.server.notify.letters` writes a notification's text from its
  recipient's own view, in the recipient's language and time zone;
- :mod:`~arbitre.server.notify.mail` builds and sends e-mails over SMTP
  (``ARBITRE_SMTP_URL``), with a one-click unsubscribe link;
- :mod:`~arbitre.server.notify.sender` claims the outbox's deliveries and sends
  each once, from any number of server processes; it also writes the
  "deadline soon" notifications when their time comes.

The outbox itself (rows written in the transaction of the change) is
:mod:`arbitre.store.outbox`.
"""
