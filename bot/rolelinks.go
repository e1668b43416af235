package bot

import "net/http"

// RoleLinks is Linked Roles (package bot/linkedroles), as the bot tells
// it what changes a player's metadata and serves its pages. Its methods
// queue work and return at once.
type RoleLinks interface {
	// Played: a rated game in guild ("" outside servers) ended.
	Played(guild string, users ...string)
	// Champion: user won the season just ended in guild.
	Champion(guild, user string)
	// Puzzled: a puzzle of user's counted.
	Puzzled(user string)
	// Handler serves the sign-in pages, at linkedroles.Path and
	// linkedroles.CallbackPath.
	Handler() http.Handler
}

// Where the sign-in pages are served (linkedroles.Path, CallbackPath).
const (
	roleLinksPath     = "/linked-roles"
	roleLinksCallback = "/linked-roles/callback"
)

// roleLinksHelp is Discord's guide for server owners to roles that
// require a linked app, which /kulami settings links to.
const roleLinksHelp = "https://support.discord.com/hc/en-us/articles/10388356626711"

// noRoleLinks is RoleLinks off: told nothing, serving nothing.
type noRoleLinks struct{}

func (noRoleLinks) Played(string, ...string) {}
func (noRoleLinks) Champion(string, string)  {}
func (noRoleLinks) Puzzled(string)           {}
func (noRoleLinks) Handler() http.Handler    { return nil }
