"""Blobs in an S3-compatible object store: django-storages' ``S3Storage`` and its boto3 client.

The client covers what Django's storage API does not: ranged and streamed reads, the bucket
check for readiness, and the store's own multipart upload (start, a part, join, abort), which
``storage_service.uploads.object_store`` builds a large file's upload on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from shared import readiness
from storage_service.files.blobs import CHUNK_SIZE, BlobStore

if TYPE_CHECKING:
    from storages.backends.s3 import S3Storage


class S3BlobStore(BlobStore):
    """Blobs as objects of one bucket; downloads are redirected to pre-signed URLs."""

    storage: S3Storage

    def __init__(self, storage: S3Storage) -> None:
        super().__init__(storage)

    @property
    def client(self) -> Any:
        """The storage's boto3 client, for what Django's storage API does not cover."""
        return self.storage.connection.meta.client

    @property
    def bucket(self) -> str:
        return self.storage.bucket_name

    def head(self, name: str, size: int) -> bytes:
        """Return the first ``size`` bytes of a blob, with a ranged GET."""
        response = self.client.get_object(Bucket=self.bucket, Key=name, Range=f"bytes=0-{size - 1}")
        return response["Body"].read()

    def chunks(self, name: str) -> Iterator[bytes]:
        body = self.client.get_object(Bucket=self.bucket, Key=name)["Body"]
        try:
            yield from body.iter_chunks(CHUNK_SIZE)
        finally:
            body.close()

    def download_url(
        self, name: str, *, content_type: str, disposition: str, expire: int
    ) -> str | None:
        """A pre-signed URL: the store serves the bytes (ranges included) with these headers."""
        parameters = {
            "ResponseContentType": content_type,
            "ResponseContentDisposition": disposition,
        }
        return self.storage.url(name, parameters=parameters, expire=expire)

    def readiness(self) -> str:
        """Can the bucket be reached?"""
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except Exception:  # unreachable, refused or missing: the reason is not shown
            return readiness.UNREACHABLE
        return readiness.OK

    def multipart_start(self, name: str) -> str:
        """Open the store's multipart upload of the object ``name``; return its id."""
        return self.client.create_multipart_upload(Bucket=self.bucket, Key=name)["UploadId"]

    def multipart_put(
        self, name: str, *, upload_id: str, part_number: int, body: IO[bytes], size: int
    ) -> str:
        """Send one part (replacing an earlier one of that number); return the store's etag."""
        answer = self.client.upload_part(
            Bucket=self.bucket,
            Key=name,
            UploadId=upload_id,
            PartNumber=part_number,
            Body=body,
            ContentLength=size,
        )
        return answer["ETag"]

    def multipart_join(self, name: str, *, upload_id: str, etags: Sequence[str]) -> None:
        """Join the parts, whose store etags are ``etags`` in part order, into the object."""
        parts = [{"PartNumber": number, "ETag": etag} for number, etag in enumerate(etags, 1)]
        self.client.complete_multipart_upload(
            Bucket=self.bucket, Key=name, UploadId=upload_id, MultipartUpload={"Parts": parts}
        )

    def multipart_abort(self, name: str, *, upload_id: str) -> None:
        """Abort the store's upload, deleting its parts; one already gone is fine."""
        try:
            self.client.abort_multipart_upload(Bucket=self.bucket, Key=name, UploadId=upload_id)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") not in {"NoSuchUpload", "404"}:
                raise
