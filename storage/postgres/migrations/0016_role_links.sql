-- The users' links to Discord's Linked Roles (storage.RoleLink: the
-- sealed OAuth2 grant and what the metadata count), one row a user.
-- IF NOT EXISTS: a test of the earlier migrations runs them again over a
-- schema that has this table.
CREATE TABLE IF NOT EXISTS role_links (
    user_id text PRIMARY KEY,
    data    text NOT NULL
);
