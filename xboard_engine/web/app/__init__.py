"""The server as a program: ``serve``/``web`` (``cli``), its HTTP side and pages (``routes``, the one
module that knows aiohttp), the piece pictures, the garbage collector's timing and the importer of a
personal server's old files."""
