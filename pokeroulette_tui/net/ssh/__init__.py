"""The card room over SSH (``pokeroulette serve-ssh``): keys prove names, each terminal gets
the app in this process, tables are hosted as LAN tables are. Needs the ``ssh`` extra
(asyncssh); nothing here imports it until the room is served."""
