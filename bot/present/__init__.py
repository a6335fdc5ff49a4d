"""The presentation layer: what every platform shows, as data; adapters only lay it out."""
