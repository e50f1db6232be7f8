"""LAN play: the wire protocol, the table host, the server and the remote session.

``protocol`` (messages, no sockets), ``commit`` (deck commitments), ``host`` (the table logic,
no sockets), ``server`` (moves bytes), ``client`` (RemoteSession), ``launch`` (the CLI).
"""
