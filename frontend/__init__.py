"""Frontend: the browser client's pages and static files."""
