"""The linear programs of the text held against a brute-force vertex-enumeration oracle."""
