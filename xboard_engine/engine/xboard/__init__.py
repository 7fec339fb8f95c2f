"""What exists only because of XBoard 4.9.1: the positions it reads and writes, what it shows with
legality testing off, its guided move entry, the piece pictures it lacks and ``xboard-engine play``."""
