from django.db import models


class RateLimitCounter(models.Model):
    """The table ``shared.rate_limits.DatabaseCounter`` expects, as each service declares it."""

    bucket = models.CharField(max_length=200)
    window_start = models.BigIntegerField(db_index=True)
    hits = models.BigIntegerField(default=0)

    class Meta:
        db_table = "rate_limit_counter"
        constraints = [
            models.UniqueConstraint(fields=["bucket", "window_start"], name="rl_bucket_window")
        ]

    def __str__(self) -> str:
        return self.bucket
