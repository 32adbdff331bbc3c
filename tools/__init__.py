"""The repository's tools that are not the gadget: the scripts that draw the docs' pictures
(scripts/*_pictures, scripts/screenshots) and the table drivers they, the benches and the tests
share. Not in the wheel: run from a checkout (``python -m tools.tour``)."""
