"""Web Push from the server (RFC 8030/8291/8292): VAPID keys (`keys`), the events that cause a
push (`notices`), the outbox written with the change (`outbox`), devices' subscriptions
(`subscriptions`), what a push says (`payload`) and the task that sends (`sender`)."""
