"""Web Push tables (games/webpush/)."""

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """One browser's push subscription (the page's `PushSubscription.toJSON()`): where to post
    (`endpoint`, on an allowed host: games.webpush.hosts) and the keys to encrypt for
    (`p256dh`, `auth`, base64url). `language`: the page's when it subscribed, the language of
    what is pushed to it. A user keeps his newest five."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")  # fmt: skip
    endpoint = models.CharField(max_length=1024, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    language = models.CharField(max_length=2, default="en")
    created = models.DateTimeField()
    last_used = models.DateTimeField(null=True)


class PushDelivery(models.Model):
    """One message (its `key`: a notification's "n<id>") to one subscription: inserted before
    the first try, so a message is posted to a subscription at most once even if told twice.
    `state`: sending → sent | failed (a 404/410 deletes the subscription, and its rows)."""

    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE,
                                     related_name="+")  # fmt: skip
    key = models.CharField(max_length=40)
    state = models.CharField(max_length=10, default="sending")
    attempts = models.PositiveSmallIntegerField(default=0)
    status = models.PositiveSmallIntegerField(null=True)  # the push service's last answer
    created = models.DateTimeField()
    done = models.DateTimeField(null=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["subscription", "key"], name="push_once")]
