package linkedroles

import (
	"html/template"
	"net/http"

	"github.com/kulami/kulami/bot/i18n"
)

// page is what a page of the flow shows.
type page struct {
	Lang            i18n.Lang
	Title, Text     string
	Values          []value
	Note            string
	Again, AgainURL string
}

// value is one metadata value on the page of a link made.
type value struct{ ID, Name, Value string }

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;line-height:1.5}
dt{font-weight:bold}dd{margin:0 0 .5em}</style></head>
<body>
<h1 id="title">{{.Title}}</h1>
<p id="text">{{.Text}}</p>
{{if .Values}}<dl id="values">{{range .Values}}<dt>{{.Name}}</dt><dd id="{{.ID}}">{{.Value}}</dd>{{end}}</dl>{{end}}
{{if .Note}}<p>{{.Note}}</p>{{end}}
{{if .Again}}<p><a id="again" href="{{.AgainURL}}">{{.Again}}</a></p>{{end}}
</body></html>
`))

// page writes p as an HTML page with status.
func (l *Linker) page(w http.ResponseWriter, status int, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.WriteHeader(status)
	if err := pageTemplate.Execute(w, p); err != nil {
		l.log.Warn("linked roles: a page could not be written", "err", err)
	}
}
