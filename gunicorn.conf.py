"""gunicorn's settings, read from the working directory by `gunicorn supportdesk.wsgi` (README).

gunicorn answers a request line over its limit (4094 bytes by default) with its own HTML page,
outside the API's envelope. Its limit is lifted here: the service answers an over-long address
itself, 414 in the envelope (`ISTEK_ADRESI_SINIRI`, supportdesk/core/middleware.py), and the
worker timeout still bounds how long one client can keep sending a line.
"""
limit_request_line = 0
