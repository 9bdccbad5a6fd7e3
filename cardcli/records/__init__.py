"""Game records: the complete account of a match, one JSON object per line of a file.

- :mod:`.io` reads and writes record files (one record per line, :data:`.io.FORMAT_VERSION`);
- :mod:`.shape` checks the shape of an untrusted record (every field a reader uses, with its
  type and bounds) and of a tournament's configuration;
- :mod:`.model` holds a checked record as typed, frozen values;
- :mod:`.signing` signs records and checks their signatures (the optional ``sign`` extra).

``docs/records.md`` documents the format. Importing this package imports none of them.
"""
