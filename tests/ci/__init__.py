"""The GitHub Action and the pre-commit hooks."""
