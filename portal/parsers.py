"""The API's request parsers, in a module of their own: DRF reads them from the settings while
``portal.api`` is still being imported, so they must import nothing of the portal."""

from rest_framework import exceptions, parsers


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with a body nested too deep for the decoder answered as a 400, not a RecursionError."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - the body is nested too deeply.") from None
