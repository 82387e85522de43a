-- Whom to tell when a subscription's endpoint is paused for failing: an e-mail address of the
-- integrator's operations, optional (without it, or without a mail server, the pause is audited only).
ALTER TABLE subscription ADD COLUMN contact_email text;
