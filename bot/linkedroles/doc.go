// Package linkedroles is Kulami's Discord Linked Roles: a player links
// their Discord account once, through Discord's OAuth2 page, and servers
// can then make roles that need, say, a best rating of 1800 or a season
// won, without a moderator handing them out.
//
// # Metadata
//
// The application publishes five metadata records (Records), registered
// at start (Linker.Register, an idempotent PUT of the same five): the
// player's best rating over the ladders of the servers they play in,
// their rated games there, their puzzle rating, their puzzles solved at
// the first attempt, and whether they ever won a season. valuesOf
// computes them (Values) from the player's ladders, puzzle record and
// link.
//
// # The flow
//
// Handler serves two paths on the bot's HTTP listener. GET /linked-roles
// (the Developer Portal's "Linked Roles Verification URL") sets a signed
// cookie holding a fresh state that expires in 10 minutes, and redirects
// to Discord's authorization page with the scopes identify and
// role_connections.write. GET /linked-roles/callback checks that the
// state Discord sends back is the cookie's, signed by this bot, unexpired
// and never used before; then it exchanges the code for tokens, reads the
// user, pushes their metadata and stores the link: the tokens sealed with
// AES-GCM (seal.go) under a key of the configuration, bound to the user.
// Each refusal (no cookie, a forged, used or expired state, consent
// denied, a code or a token Discord refuses, Discord unreachable) gets a
// page in the reader's language (Accept-Language), stores nothing and
// logs one line without secrets. Nothing else is served: without a
// client secret the bot serves neither path.
//
// # Updates
//
// Played (after a rated game), Champion (at a season's end) and Puzzled
// (after a puzzle that counted) queue a push of the player's metadata on
// the Linker's job runner (package bot/jobs): one worker, so the pushes
// go one at a time, each honouring Discord's Retry-After when it answers
// 429. A push of a player who is not linked does nothing. An access token
// that ran out is refreshed first; a grant Discord says is revoked (401,
// or invalid_grant on refresh) is forgotten, so that user is never pushed
// again until they link anew.
//
// A Linker is safe for concurrent use.
package linkedroles
