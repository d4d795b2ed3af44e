"""HTTP routes: the JSON API (``api``) and the web pages (``pages_*``)."""
