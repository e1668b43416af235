package discordtest

import (
	"bytes"
	_ "embed" // for the OpenAPI description
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// openAPI is Discord's official OpenAPI 3.1 description of its v10 HTTP API (see testdata/README.md).
//
//go:embed testdata/openapi.json
var openAPI []byte

// specURL names the embedded document as one JSON Schema resource; schemas are compiled by JSON pointer
// into it, so references between components resolve inside the one document.
const specURL = "https://discord.com/api/v10/openapi.json"

// spec is the parsed OpenAPI document: the route table and a cache of compiled schemas.
// It is safe for concurrent use.
type spec struct {
	routes  []*route        // most literal segments first, so /messages/@original wins over /messages/{message_id}
	locales map[string]bool // Discord's locales (AvailableLocalesEnum), for localizations
	scopes  map[string]bool // the OAuth2 scopes of the authorization-code flow (securitySchemes)

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema
}

// route is one path template of the spec with its operations.
type route struct {
	template string   // e.g. /channels/{channel_id}/messages
	segs     []string // template split on "/", without the leading empty segment
	literals int      // number of segments that are not {params}
	ops      map[string]*operation
}

// operation is one method of a route.
type operation struct {
	id           string
	bodyPointer  string // JSON pointer of the JSON request-body schema, "" if the operation takes no body
	bodyRequired bool
	multipart    bool              // the operation accepts multipart/form-data
	pathParams   map[string]string // name → pointer of the parameter's schema
	queryParams  map[string]string // name → pointer of the parameter's schema
	needsBot     bool              // the operation requires a token (its security has no {} alternative)
	botOK        bool              // the bot token is one (a BotToken alternative, or no security stated)
	oauthScopes  []string          // the scopes of its OAuth2 alternative, which a user's Bearer token may meet; nil for none
}

var (
	specOnce sync.Once
	specVal  *spec
	specErr  error
)

// loadSpec parses the embedded document once per process.
func loadSpec() (*spec, error) {
	specOnce.Do(func() { specVal, specErr = parseSpec(openAPI) })
	return specVal, specErr
}

func parseSpec(data []byte) (*spec, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("parse openapi.json: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020) // OpenAPI 3.1 schemas are JSON Schema 2020-12
	if err := c.AddResource(specURL, doc); err != nil {
		return nil, fmt.Errorf("add openapi.json: %w", err)
	}
	root, _ := doc.(map[string]any)
	paths, _ := root["paths"].(map[string]any)
	if len(paths) == 0 {
		return nil, fmt.Errorf("openapi.json has no paths")
	}
	sp := &spec{compiler: c, schemas: map[string]*jsonschema.Schema{}, locales: locales(root), scopes: scopes(root)}
	if len(sp.locales) == 0 {
		return nil, fmt.Errorf("openapi.json has no AvailableLocalesEnum")
	}
	for tmpl, v := range paths {
		item, _ := v.(map[string]any)
		r := &route{template: tmpl, segs: strings.Split(strings.TrimPrefix(tmpl, "/"), "/"), ops: map[string]*operation{}}
		for _, s := range r.segs {
			if !isParam(s) {
				r.literals++
			}
		}
		itemPtr := "#/paths/" + escapePointer(tmpl)
		for method, ov := range item {
			o, ok := ov.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			op := &operation{pathParams: map[string]string{}, queryParams: map[string]string{}}
			op.id, _ = o["operationId"].(string)
			opPtr := itemPtr + "/" + method
			addParams(op, item["parameters"], itemPtr+"/parameters")
			addParams(op, o["parameters"], opPtr+"/parameters")
			if rb, ok := o["requestBody"].(map[string]any); ok {
				op.bodyRequired, _ = rb["required"].(bool)
				content, _ := rb["content"].(map[string]any)
				if _, ok := content["application/json"]; ok {
					op.bodyPointer = opPtr + "/requestBody/content/application~1json/schema"
				} else if _, ok := content["multipart/form-data"]; ok {
					op.bodyPointer = opPtr + "/requestBody/content/multipart~1form-data/schema"
				}
				_, op.multipart = content["multipart/form-data"]
			}
			op.needsBot, op.botOK = true, true
			if sec, ok := o["security"].([]any); ok {
				op.botOK = false
				for _, alt := range sec {
					m, _ := alt.(map[string]any)
					if len(m) == 0 {
						op.needsBot = false
					}
					if _, ok := m["BotToken"]; ok {
						op.botOK = true
					}
					if scopes, ok := m["OAuth2"].([]any); ok {
						op.oauthScopes = []string{}
						for _, sc := range scopes {
							if name, ok := sc.(string); ok {
								op.oauthScopes = append(op.oauthScopes, name)
							}
						}
					}
				}
			}
			r.ops[strings.ToUpper(method)] = op
		}
		sp.routes = append(sp.routes, r)
	}
	sort.Slice(sp.routes, func(i, j int) bool {
		a, b := sp.routes[i], sp.routes[j]
		if a.literals != b.literals {
			return a.literals > b.literals
		}
		return a.template < b.template
	})
	return sp, nil
}

// scopes returns the OAuth2 scopes of the document's authorization-code flow.
func scopes(root map[string]any) map[string]bool {
	out := map[string]bool{}
	components, _ := root["components"].(map[string]any)
	schemes, _ := components["securitySchemes"].(map[string]any)
	o, _ := schemes["OAuth2"].(map[string]any)
	flows, _ := o["flows"].(map[string]any)
	code, _ := flows["authorizationCode"].(map[string]any)
	sc, _ := code["scopes"].(map[string]any)
	for name := range sc {
		out[name] = true
	}
	return out
}

// locales returns the locales of the document's AvailableLocalesEnum.
func locales(root map[string]any) map[string]bool {
	out := map[string]bool{}
	components, _ := root["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	enum, _ := schemas["AvailableLocalesEnum"].(map[string]any)
	alts, _ := enum["oneOf"].([]any)
	for _, a := range alts {
		m, _ := a.(map[string]any)
		if c, ok := m["const"].(string); ok {
			out[c] = true
		}
	}
	return out
}

func addParams(op *operation, v any, ptr string) {
	params, _ := v.([]any)
	for i, pv := range params {
		p, _ := pv.(map[string]any)
		name, _ := p["name"].(string)
		if _, ok := p["schema"]; !ok || name == "" {
			continue
		}
		sch := fmt.Sprintf("%s/%d/schema", ptr, i)
		switch p["in"] {
		case "path":
			op.pathParams[name] = sch
		case "query":
			op.queryParams[name] = sch
		}
	}
}

func isParam(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

// escapePointer escapes one JSON-pointer token (RFC 6901) for use in a URL fragment.
func escapePointer(tok string) string {
	tok = strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
	return strings.NewReplacer("%", "%25", "#", "%23").Replace(tok)
}

// match finds the route whose template matches path (relative to the API root, e.g. /channels/1/messages)
// and returns it with the values of its path parameters.
func (sp *spec) match(path string) (*route, map[string]string) {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for _, r := range sp.routes {
		if len(r.segs) != len(segs) {
			continue
		}
		params := map[string]string{}
		ok := true
		for i, s := range r.segs {
			switch {
			case isParam(s) && segs[i] != "":
				params[strings.Trim(s, "{}")] = segs[i]
			case s != segs[i]:
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok {
			return r, params
		}
	}
	return nil, nil
}

// schema compiles (once) the schema at the JSON pointer ptr of the document.
func (sp *spec) schema(ptr string) (*jsonschema.Schema, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if s, ok := sp.schemas[ptr]; ok {
		return s, nil
	}
	s, err := sp.compiler.Compile(specURL + ptr)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", ptr, err)
	}
	sp.schemas[ptr] = s
	return s, nil
}

// validateJSON validates a JSON document against the schema at ptr.
func (sp *spec) validateJSON(ptr string, data []byte) error {
	sch, err := sp.schema(ptr)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("body is not JSON: %w", err)
	}
	return validationError(sch.Validate(v))
}

// validateParam validates one path or query parameter. Parameters travel as strings, so a value is
// accepted if it validates either as a string or, when it parses as one, as a JSON number or boolean.
func (sp *spec) validateParam(ptr, value string) error {
	sch, err := sp.schema(ptr)
	if err != nil {
		return err
	}
	first := sch.Validate(value)
	if first == nil {
		return nil
	}
	if v, err := jsonschema.UnmarshalJSON(strings.NewReader(value)); err == nil {
		switch v.(type) {
		case json.Number, bool:
			if sch.Validate(v) == nil {
				return nil
			}
		}
	}
	return validationError(first)
}

// validationError shortens the validator's message: the schema location is the long pointer into
// openapi.json, which says less than the instance locations that follow it.
func validationError(err error) error {
	if err == nil {
		return nil
	}
	if ve, ok := err.(*jsonschema.ValidationError); ok {
		prune(ve)
		msg := ve.Error()
		if _, rest, found := strings.Cut(msg, "\n"); found {
			msg = rest
		}
		return fmt.Errorf("%s", msg)
	}
	return err
}

// checkQuery validates the query of a request against the operation's declared query parameters.
func (sp *spec) checkQuery(op *operation, q url.Values) []string {
	var problems []string
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ptr, ok := op.queryParams[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("query parameter %q is not declared for this route", name))
			continue
		}
		for _, v := range q[name] {
			if err := sp.validateParam(ptr, v); err != nil {
				problems = append(problems, fmt.Sprintf("query parameter %s=%q: %v", name, v, err))
			}
		}
	}
	return problems
}

// prune drops, from every failed anyOf/oneOf, the branches that failed only because the body's "type"
// selects another branch: Discord's unions (x-discord-union) are told apart by their "type" enums, and
// the branches meant for other types say nothing useful about what is wrong.
func prune(e *jsonschema.ValidationError) {
	for _, c := range e.Causes {
		prune(c)
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
	default:
		return
	}
	depth := len(e.InstanceLocation)
	var kept []*jsonschema.ValidationError
	for _, c := range e.Causes {
		if !otherBranch(c, depth) {
			kept = append(kept, c)
		}
	}
	if len(kept) > 0 {
		e.Causes = kept
	}
}

// otherBranch reports whether the failed branch c rejected the value's "type" member by enum or const,
// looking through the $ref and group nodes that wrap a branch's own errors.
func otherBranch(c *jsonschema.ValidationError, depth int) bool {
	if typeMismatch(c, depth) {
		return true
	}
	switch c.ErrorKind.(type) {
	case *kind.Reference, *kind.Group:
		for _, cc := range c.Causes {
			if otherBranch(cc, depth) {
				return true
			}
		}
	}
	return false
}

func typeMismatch(c *jsonschema.ValidationError, depth int) bool {
	loc := c.InstanceLocation
	if len(loc) != depth+1 || loc[depth] != "type" {
		return false
	}
	switch c.ErrorKind.(type) {
	case *kind.Enum, *kind.Const:
		return true
	}
	return false
}

// commandRoutes are the routes whose request bodies are application commands.
var commandRoutes = map[string]bool{
	"/applications/{application_id}/commands":                                true,
	"/applications/{application_id}/commands/{command_id}":                   true,
	"/applications/{application_id}/guilds/{guild_id}/commands":              true,
	"/applications/{application_id}/guilds/{guild_id}/commands/{command_id}": true,
}

// docAllowance adapts a request body where the OpenAPI description contradicts Discord's docs, which
// win. It is the one such place the bot meets:
//
//   - default_member_permissions of an application command: the description's request schemas want an
//     integer, Discord's docs (and the description's own ApplicationCommandResponse) a string holding
//     the permission bit set, which is what discordgo sends (`json:",string"`). A string of digits is
//     checked as the integer it holds, so its range is still validated.
func docAllowance(route string, body []byte) []byte {
	if !commandRoutes[route] {
		return body
	}
	v, err := decodeAny(body)
	if err != nil {
		return body
	}
	cmds, isList := v.([]any)
	if !isList {
		cmds = []any{v}
	}
	changed := false
	for _, c := range cmds {
		cmd, _ := c.(map[string]any)
		if p, ok := cmd["default_member_permissions"].(string); ok {
			if n, err := strconv.ParseUint(p, 10, 64); err == nil {
				cmd["default_member_permissions"] = json.Number(strconv.FormatUint(n, 10))
				changed = true
			}
		}
	}
	if !changed {
		return body
	}
	return mustJSON(v)
}
