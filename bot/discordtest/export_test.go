package discordtest

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// ResponseProblems checks every answer the fake gave to a REST request against the response schema
// that Discord's OpenAPI description declares for its route, method and status: the fake's own
// answers must look like Discord's. It returns one line per mismatch.
func ResponseProblems(s *Server) []string {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		return []string{err.Error()}
	}
	var problems []string
	for _, r := range s.Requests() {
		if r.Route == "" || r.Response == nil {
			continue
		}
		var op struct {
			Responses map[string]struct {
				Ref     string                     `json:"$ref"`
				Content map[string]json.RawMessage `json:"content"`
			} `json:"responses"`
		}
		method := map[string]string{"GET": "get", "POST": "post", "PUT": "put", "PATCH": "patch", "DELETE": "delete"}[r.Method]
		if err := json.Unmarshal(doc.Paths[r.Route][method], &op); err != nil {
			problems = append(problems, fmt.Sprintf("%s %s: %v", r.Method, r.Route, err))
			continue
		}
		status := strconv.Itoa(r.Status)
		ptr := "#/paths/" + escapePointer(r.Route) + "/" + method + "/responses/" + status + "/content/application~1json/schema"
		resp, ok := op.Responses[status]
		if !ok && r.Status >= 400 && r.Status < 500 {
			resp, ok = op.Responses["4XX"]
			ptr = "#/components/schemas/ErrorResponse"
		}
		switch {
		case !ok && r.Status >= 500:
			continue // the spec declares no server errors
		case !ok:
			problems = append(problems, fmt.Sprintf("%s %s: status %d is not declared", r.Method, r.Route, r.Status))
			continue
		case resp.Ref != "":
			ptr = resp.Ref + "/content/application~1json/schema" // a shared response, such as the 429's
		case resp.Content["application/json"] == nil:
			problems = append(problems, fmt.Sprintf("%s %s: status %d has no JSON body in the spec, but the fake sent one", r.Method, r.Route, r.Status))
			continue
		}
		if err := s.spec.validateJSON(ptr, r.Response); err != nil {
			problems = append(problems, fmt.Sprintf("%s %s answered %d:\n%v", r.Method, r.Path, r.Status, err))
		}
	}
	return problems
}
