from rest_framework.response import Response


def basarili(data: dict | None = None, status: int = 200, headers: dict | None = None) -> Response:
    """The success envelope of CONTRACT 1: `data` is always an object."""
    return Response({"basarili": True, "data": data if data is not None else {}}, status=status, headers=headers)
