"""What each benchmark does: appends, moves over HTTP and the socket, fan-out, the floor, the
write path's CPU, capacity, bench-load's run and audits, the web pages, replays, `make run`'s
process and the failover drill. Entry points (`python -m bench.run`, ...) drive them."""
