"""SAT encodings through python-sat, outside SAT binaries, DRAT certificates and the plug-in encodings."""
