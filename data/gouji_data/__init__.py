"""Data files shipped with gouji (fonts and their licences), read with importlib.resources.

The source tree keeps them under ``data/``; the wheel installs them as the package
``gouji_data``, so code never looks for files next to the source tree.
"""
