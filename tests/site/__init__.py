"""The site: its build, pages, search and the browser checks."""
