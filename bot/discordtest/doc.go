// Package discordtest is a fake Discord for end-to-end tests of the bot, in the spirit of
// net/http/httptest: a REST API and a gateway on one local httptest.Server, driven through the real
// discordgo code. It fakes Discord at the network boundary only.
//
// The fake holds one application with its bot user, one guild, and the channels, threads, DM channels,
// users, messages (with their uploaded files), registered commands and interactions that the test and
// the bot create. Its answers have Discord's shapes, so discordgo decodes them as it decodes Discord's.
//
// # Validation
//
// Every REST request is checked against Discord's official OpenAPI description (testdata/openapi.json,
// embedded): the route must exist, have the method, carry the bot token where the route needs it, and
// have path and query parameters and a body (JSON, or the payload_json part of a multipart upload) that
// match the route's schemas. The fake also refuses what Discord's docs say it refuses beyond the schema:
// empty messages, content over 2000 characters, a second response to an interaction, a response type the
// interaction does not allow, a first response that reaches it later than 3 seconds (however long a
// Delay or Hold then keeps it), a followup before any response,
// and in application commands a name or localized name that breaks Discord's naming rule (lower case
// letters, digits, - and _), a localization for a locale Discord does not have, and two commands or two
// options side by side with the same name in a locale.
// Each such request is a Violation: the fake answers Discord's error and fails the test with
// t.Errorf, naming method, path, route and the validator's message. With CollectViolations the
// violations are only recorded, for tests that check that a bad request is caught.
//
// Note that the description forbids few unknown members (its schemas rarely say additionalProperties:
// false), so a misspelt optional field passes; a wrong type, a missing required field, an out-of-range
// value or an unknown component type does not.
//
// # Usage
//
//	func TestNewGame(t *testing.T) {
//		dc := discordtest.New(t)
//		games := dc.AddChannel("games")
//		alice, bob := dc.AddUser("alice"), dc.AddUser("bob")
//
//		// Run the bot against the fake: its token is dc.Token(), its application dc.AppID(), and its
//		// HTTP client rewrites https://discord.com/ to dc.URL() (dc.Transport() does exactly that).
//		startBot(t, dc)
//		dc.WaitReady(t)
//
//		i := dc.Command(games.ID, alice, "kulami",
//			discordtest.Subcommand("new", discordtest.UserOption("opponent", bob.ID)))
//		dc.SendInteraction(i)
//
//		r := dc.WaitResponse(t, i.ID)
//		if r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
//			dc.WaitOriginal(t, i.ID, func(m *discordtest.Message) bool { return len(m.Files) > 0 })
//		}
//		board, _ := dc.Original(i.ID)
//		img, err := png.Decode(bytes.NewReader(board.Files[0].Data))
//		// … and click a button of the board:
//		dc.SendInteraction(dc.Button(board.ID, bob, "kulami:move:..."))
//	}
//
// For the bot's HTTP interactions endpoint, configure it with dc.PublicKeyHex() and send interactions
// with dc.PostInteraction(url, i): the synchronous answer is validated and recorded like a callback, so
// WaitResponse and Original work the same. PostBody sends badly signed, stale or unsigned bodies.
//
// Tests may make a route fail (Fail), slow (Delay), hold its requests until they let them go (Hold),
// lose its answers after doing what was asked (LoseResponses),
// read every request (Requests, RequestsTo), the messages of a
// channel (Messages), a message after its edits (Message), the commands registered (Commands), and push
// any gateway event (Dispatch).
//
// # OAuth2 and Linked Roles
//
// The fake is also Discord's OAuth2 provider for its application: AuthorizeURL stands for
// https://discord.com/oauth2/authorize (the signed-in user of Consent approves and the browser is
// redirected with a code, or with error=access_denied; a redirect URI not registered with
// AddRedirectURI, another client ID or an unknown scope is a violation), and POST /api/v10/oauth2/token
// takes the authorization_code and refresh_token grants with ClientSecret, form-encoded as RFC 6749 says
// (the OpenAPI description leaves this endpoint out). A code works once, for 10 minutes; an access token
// for OAuthTokenLifetime by the fake's clock; refresh tokens rotate; RevokeGrant kills a user's tokens.
// A user's Bearer token is taken on the routes whose security has OAuth2 (with their scopes, else a
// violation), and the bot token refused on those that have no BotToken. The Linked Roles routes keep
// the metadata registered (RoleMetadata) and each user's role connection (RoleConnection), refusing, as
// Discord does, a key not registered or a value not of its type.
//
// # Notifications
//
// Discord notifies a mentioned user of a new message only: a channel message, a type 4 interaction
// response or a followup, for the users its allowed_mentions allows; never of an edit (of a message,
// of a deferred response, or the followup that replaces a "thinking…" message), nor of an ephemeral
// message, nor of a silent one (the flag SUPPRESS_NOTIFICATIONS, 1<<12). A new DM of the bot notifies
// its recipient, mentioned or not, unless it is silent. The fake records every mention with whether it notified and why not (Mentions,
// Notifications, NotifiedIn, Message.Notified), so a test can check that "your move" reached the player.
//
// # Time
//
// The fake has a clock (Now), the system's or WithClock's, that Advance moves on. By it, an
// interaction's token works for 15 minutes after its first delivery (then 401 Invalid Webhook Token,
// 50027), its callback for the ack deadline (then 404 Unknown interaction, 10062), and a thread without
// a message for its auto_archive_duration is archived (a message by the bot unarchives it; a locked
// thread takes one only with Manage Threads). These refusals, like those after RejectCallbacks (Discord never got the answer in time), a
// redelivered interaction (SendInteraction or PostInteraction twice, or replayed by a resume after
// ReplayOnResume, or after LoseResponses lost the answer to a callback: a second acknowledgement gets 40060)
// and a deleted channel (DeleteChannel: 404 Unknown Channel, 10003), are Discord's answers to a healthy
// bot, so they are no violations: assert on what the bot does next.
//
// # Places the bot is not in
//
// A user may install the app to their account; its commands then work where the bot is no member:
// AddPrivateChannel makes a DM (two users) or group DM (three or more) between users, AddForeignChannel
// a channel of a server that never added the bot, AddStranger a user who shares no server with it, and
// InstallToUser installs the app to a user. Interactions built there carry Discord's context (2 in
// private channels, 0 in servers), authorizing_integration_owners {"1": installer} (for a click, the
// installer of the interaction that made its message, down to the command that began the chain) and
// app_permissions,
// and the fake holds Discord's limits: any request with the bot token about such a channel (post, edit,
// read) is refused 403 Missing Access (50001) as a violation, since the interaction told the bot where it
// is; an interaction that only a user install authorised takes at most 5 follow-ups (the sixth: 400,
// 40094, a violation); its token dies after 15 minutes like any other; and where a server denies its
// member Use External Apps, every answer and follow-up is made ephemeral whatever the bot asked. A DM
// to a user who neither shares the server nor installed the app is refused 403 Cannot send messages to
// this user (50007), no violation: the bot cannot know.
//
// # Gateway closes
//
// CloseGateway closes the gateway connections with a close code; after a fatal one (FatalCloseCodes:
// 4004 authentication failed, 4010–4014) the fake refuses every IDENTIFY and RESUME with the same code
// until ReopenGateway, as Discord does while the cause remains.
//
// A Server is safe for concurrent use and is closed when the test ends; discordgo sessions from Session
// are closed before it. Close the bot's own session before the Server too (register its cleanup after
// New): a discordgo session whose gateway goes away tries to reconnect for ever.
//
// discordgo's quirks met here: Session.Close waits a second; a Ready handler must not read r.Guilds,
// which discordgo's state overwrites when GUILD_CREATE comes (a data race); ThreadStart omits a zero
// thread type, and API v9 then makes a private thread, which needs Create Private Threads.
package discordtest
