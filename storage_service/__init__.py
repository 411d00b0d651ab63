"""The file storage service: files, folders, API keys and billing behind a JSON envelope at /v1."""
