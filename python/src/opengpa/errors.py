"""Exceptions: every GPA status other than OK becomes a GPAError with the status and the library's reason."""

from __future__ import annotations

from .enums import Status


class GPAError(Exception):
    """A GPA function returned a status other than GPA_STATUS_OK.

    ``status`` is the Status (an int when the library returned a value this module does not know),
    ``function`` the C function that failed and ``reason`` what the library said went wrong and what to do
    (OGPA_GetLastErrorMessage).
    """

    def __init__(self, function: str, status: Status | int, reason: str) -> None:
        self.function = function
        self.status = status
        self.reason = reason
        name = status.name if isinstance(status, Status) else str(status)
        super().__init__(f"{function} returned GPA_STATUS_{name}: {reason}" if reason else
                         f"{function} returned GPA_STATUS_{name}")


class LibraryNotFoundError(OSError):
    """No libGPUPerfAPI<API>.so could be loaded; the message lists where the package looked."""
