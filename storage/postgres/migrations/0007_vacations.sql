-- The players' vacation banks (storage.Vacation), one row a user. data is
-- the Vacation in the stored encoding; wake_at (Unix nanoseconds) is its
-- wake (storage.Vacation.Wake), which the scheduler's NextWake and Due
-- read with the wakes of the table active, as storage.WakeVacation.
CREATE TABLE vacations (
    user_id text PRIMARY KEY,
    wake_at bigint,
    data    text NOT NULL
);
CREATE INDEX vacations_wake ON vacations (wake_at);
