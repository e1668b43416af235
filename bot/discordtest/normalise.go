package discordtest

import (
	"bytes"
	"encoding/json"
)

// decodeAny decodes JSON keeping numbers as json.Number, so that re-encoding changes nothing.
func decodeAny(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// dropNulls removes the null members of objects, recursively, as Discord omits them in its answers.
func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				v[k] = dropNulls(x)
			}
		}
	case []any:
		for i, x := range v {
			v[i] = dropNulls(x)
		}
	}
	return v
}

// selectTypes are the component types of select menus.
var selectTypes = map[string]bool{"3": true, "5": true, "6": true, "7": true, "8": true}

// normaliseComponents fills in what Discord adds to the components it stores: a numeric id for each
// component that has none (counting up in tree order, after the largest id given) and min_values and
// max_values of select menus; null members are dropped.
func normaliseComponents(raw json.RawMessage) json.RawMessage {
	v, err := decodeAny(raw)
	if err != nil {
		return raw
	}
	v = dropNulls(v)
	next := int64(0)
	walkComponents(v, func(c map[string]any) {
		if n, ok := c["id"].(json.Number); ok {
			if id, err := n.Int64(); err == nil && id > next {
				next = id
			}
		}
	})
	walkComponents(v, func(c map[string]any) {
		if n, ok := c["id"].(json.Number); !ok || n == "0" {
			next++
			c["id"] = next
		}
		if t, ok := c["type"].(json.Number); ok && selectTypes[t.String()] {
			if _, ok := c["min_values"]; !ok {
				c["min_values"] = 1
			}
			if _, ok := c["max_values"]; !ok {
				c["max_values"] = 1
			}
		}
	})
	return mustJSON(v)
}

// walkComponents calls f for every component of a component tree, parents first.
func walkComponents(v any, f func(map[string]any)) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			walkComponents(x, f)
		}
	case map[string]any:
		f(v)
		for _, k := range []string{"components", "accessory"} {
			if x, ok := v[k]; ok {
				walkComponents(x, f)
			}
		}
	}
}
