"""Export and import of one principal's memory: a versioned JSON Lines file.

``format`` defines the file and validates it line by line; ``exporter`` turns the
store's rows into lines; ``importer`` turns a validated file into rows for the store,
re-owning them when asked.
"""
