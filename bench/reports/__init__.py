"""The figures as Markdown: one writer of docs/PERFORMANCE.md (doc.py) and each benchmark's
tables (service, load, web; summary turns a bench-load run into figures)."""
