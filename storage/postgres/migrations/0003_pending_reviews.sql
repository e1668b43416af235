-- The reviews asked for and not made yet (storage.PendingReview), so that
-- a bot stopped before making one makes it after its restart. data is the
-- PendingReview in the stored encoding.
CREATE TABLE pending_reviews (
    guild   text   NOT NULL,
    game_id bigint NOT NULL,
    data    text   NOT NULL,
    PRIMARY KEY (guild, game_id)
);
