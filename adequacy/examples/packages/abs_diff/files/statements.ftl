% (Polygon statement template: not read by the importer)
