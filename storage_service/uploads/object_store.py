"""Multipart uploads on an S3-compatible object store: the store's own multipart upload.

Start opens one (``backend_upload_id``), each part goes up as the store's part (its etag kept
as ``UploadPart.backend_etag``), completion asks the store to join them (no bytes pass through
this service again except one streamed read for SHA-256 and a ranged read for sniffing), and an
abort or expiry aborts the store's upload, which deletes its parts.
"""

from __future__ import annotations

from botocore.exceptions import ClientError

from storage_service.files import blobs
from storage_service.uploads.assembly import StagedPart
from storage_service.uploads.models import MultipartUpload


def store_upload_start(upload: MultipartUpload) -> str:
    """Open the store's multipart upload for ``upload``'s final object; return its id."""
    answer = blobs.s3_client().create_multipart_upload(
        Bucket=blobs.s3_bucket(), Key=upload.storage_name
    )
    return answer["UploadId"]


def store_part_put(upload: MultipartUpload, part_number: int, staged: StagedPart) -> str:
    """Send a staged part to the store (replacing an earlier one); return the store's etag."""
    with open(staged.path, "rb") as body:
        answer = blobs.s3_client().upload_part(
            Bucket=blobs.s3_bucket(),
            Key=upload.storage_name,
            UploadId=upload.backend_upload_id,
            PartNumber=part_number,
            Body=body,
            ContentLength=staged.size,
        )
    return answer["ETag"]


def store_upload_complete(upload: MultipartUpload, backend_etags: dict[int, str]) -> None:
    """Ask the store to join the parts, in order, into the final object."""
    parts = [
        {"PartNumber": number, "ETag": backend_etags[number]}
        for number in range(1, upload.part_count + 1)
    ]
    blobs.s3_client().complete_multipart_upload(
        Bucket=blobs.s3_bucket(),
        Key=upload.storage_name,
        UploadId=upload.backend_upload_id,
        MultipartUpload={"Parts": parts},
    )


def store_upload_abort(upload: MultipartUpload) -> None:
    """Abort the store's upload, deleting its parts; one already gone is fine."""
    if not upload.backend_upload_id:
        return
    try:
        blobs.s3_client().abort_multipart_upload(
            Bucket=blobs.s3_bucket(), Key=upload.storage_name, UploadId=upload.backend_upload_id
        )
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") not in {"NoSuchUpload", "404"}:
            raise
