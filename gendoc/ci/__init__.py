"""Helpers of the GitHub Action (``action.yml``) that are not part of the command line."""
