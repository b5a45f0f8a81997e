"""The store: everything the server keeps in its database (app/store/base.py explains)."""
