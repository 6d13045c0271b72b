#!/bin/sh
# Polygon builds tests with this script; the importer reads tests/ as shipped.
