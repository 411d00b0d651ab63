"""One exception type per error code of the contract; ``api.exception_handler`` renders them."""

from __future__ import annotations

import errno
from typing import Any, TypeGuard


class ApiError(Exception):
    code = "INTERNAL_ERROR"
    status = 500
    message = "An unexpected error occurred."

    def __init__(self, message: str | None = None, /, **details: Any) -> None:
        self.message = message or self.message
        self.details = details
        super().__init__(self.message)


class InvalidApiKey(ApiError):
    code, status, message = "INVALID_API_KEY", 401, "Invalid or expired API key."


class AccessDenied(ApiError):
    code, status, message = "ACCESS_DENIED", 403, "This API key is not allowed to do that."


class RateLimited(ApiError):
    code, status, message = "RATE_LIMITED", 429, "Rate limit exceeded; retry after the reset."


class InvalidParameters(ApiError):
    code, status, message = "INVALID_PARAMETERS", 400, "Some parameters are invalid."


class RouteNotFound(ApiError):
    code, status, message = "NOT_FOUND", 404, "No such endpoint."


class MethodNotAllowed(ApiError):
    code, status, message = "METHOD_NOT_ALLOWED", 405, "This method is not allowed here."


class KeyNotFound(ApiError):
    code, status, message = "KEY_NOT_FOUND", 404, "No API key with this id."


class KeyAlreadyRevoked(ApiError):
    code, status, message = "KEY_ALREADY_REVOKED", 400, "This API key is already revoked."


class CannotRevokeOwnKey(ApiError):
    code, status = "CANNOT_REVOKE_OWN_KEY", 400
    message = "An API key cannot revoke itself; use another key."


class InvalidKeyName(ApiError):
    code, status, message = "INVALID_KEY_NAME", 400, "The key name is invalid."


class InvalidPermissions(ApiError):
    code, status, message = "INVALID_PERMISSIONS", 400, "Unknown permissions requested."


class InvalidExpirationDate(ApiError):
    code, status = "INVALID_EXPIRATION_DATE", 400
    message = "expiresAt must be an ISO 8601 date-time in the future."


class KeyLimitExceeded(ApiError):
    code, status, message = "KEY_LIMIT_EXCEEDED", 400, "The organisation has too many active keys."


class FileNotFound(ApiError):
    code, status, message = "FILE_NOT_FOUND", 404, "No file with this id."


class FolderNotFound(ApiError):
    code, status, message = "FOLDER_NOT_FOUND", 404, "No folder with this id."


class FolderNotEmpty(ApiError):
    code, status = "FOLDER_NOT_EMPTY", 400
    message = "The folder contains files; pass force=true to delete them with it."


class FolderInUse(ApiError):
    code, status = "FOLDER_IN_USE", 400
    message = "A multipart upload into this folder is still in progress."


class UploadNotFound(ApiError):
    code, status, message = "UPLOAD_NOT_FOUND", 404, "No open multipart upload with this id."


class FileTooLarge(ApiError):
    code, status, message = "FILE_TOO_LARGE", 400, "The file is larger than the plan allows."


class StorageFull(ApiError):
    """The disk under MEDIA_ROOT (or the spill directory) ran out of space: 507, as HTTP says."""

    code, status = "STORAGE_FULL", 507
    message = "The server has no room for this upload now; nothing of it was kept."


def is_out_of_space(exc: BaseException) -> TypeGuard[OSError]:
    """Tell whether ``exc`` is the filesystem saying it is full (or a disk quota is reached)."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


class RangeNotSatisfiable(ApiError):
    code, status = "RANGE_NOT_SATISFIABLE", 416
    message = "The requested range is outside the file; Content-Range gives its size."


class StorageQuotaExceeded(ApiError):
    code, status, message = "STORAGE_QUOTA_EXCEEDED", 403, "The organisation's storage is full."


class InvalidDateRange(ApiError):
    code, status, message = (
        "INVALID_DATE_RANGE",
        400,
        "The end of the range must be after its start.",
    )


class DateRangeTooLarge(ApiError):
    code, status, message = "DATE_RANGE_TOO_LARGE", 400, "The date range is longer than allowed."
