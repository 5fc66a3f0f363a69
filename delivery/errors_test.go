package delivery

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

func TestSentinels(t *testing.T) {
	sentinels := []error{ErrNoChange, ErrLockedField, ErrDisallowedCombination, ErrInvalidValue, ErrMalformed, ErrClosed, ErrIllegalTransition}
	dispatched := inStatus(t, StatusDispatched)
	cases := []struct {
		name string
		d    Delivery
		body string
		want []error
	}{
		{"no change", booked(t), `{"deliveries":{}}`, []error{ErrNoChange}},
		{"locked", dispatched, `{"deliveries":{"customer":{"firstName":"B"}}}`, []error{ErrLockedField}},
		{"combination", booked(t), `{"deliveries":{"deliveryDetails":{"propertyDetails":{"locationPreference":"MAILROOM_OR_PROPERTY_STAFF"}}}}`, []error{ErrDisallowedCombination}},
		{"invalid", booked(t), `{"deliveries":{"customer":{"email":"x"}}}`, []error{ErrInvalidValue}},
		{"malformed", booked(t), `{`, []error{ErrMalformed}},
		{"closed", inStatus(t, StatusCancelled), `{"deliveries":{"clientId":"c"}}`, []error{ErrClosed}},
		{"locked and invalid and combination", dispatched,
			`{"deliveries":{"customer":{"firstName":"B","email":"x"},"deliveryDetails":{"propertyDetails":{"locationPreference":"MAILROOM_OR_PROPERTY_STAFF"}}}}`,
			[]error{ErrLockedField, ErrInvalidValue, ErrDisallowedCombination}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Apply(c.d, []byte(c.body))
			for _, s := range sentinels {
				want := false
				for _, w := range c.want {
					want = want || w == s
				}
				if errors.Is(err, s) != want {
					t.Errorf("errors.Is(err, %v) = %v", s, !want)
				}
			}
			if !errors.Is(err, constraints.ErrInvalid) {
				t.Error("not constraints.ErrInvalid")
			}
			wrapped := fmt.Errorf("service: %w", err)
			if !errors.Is(wrapped, c.want[0]) || len(constraints.AsViolations(wrapped)) == 0 {
				t.Error("wrapping loses the kind or the violations")
			}
			var e *Error
			if !errors.As(wrapped, &e) || len(e.Violations) == 0 {
				t.Error("errors.As *Error")
			}
		})
	}
}

func TestProviderErrors(t *testing.T) {
	_, err := Apply(inStatus(t, StatusDispatched), upd(`"customer":{"firstName":"B"},"deliveryDetails":{"propertyDetails":{"locationPreference":"MAILROOM_OR_PROPERTY_STAFF"}}`))
	out, jerr := json.Marshal(ProviderErrors(err))
	if jerr != nil {
		t.Fatal(jerr)
	}
	var body map[string][]map[string]string
	if err := json.Unmarshal(out, &body); err != nil {
		t.Fatal(err)
	}
	if len(body) != 1 || len(body["errors"]) != 3 {
		t.Fatalf("body %s", out)
	}
	byField := map[string]map[string]string{}
	for _, e := range body["errors"] {
		if len(e) != 6 {
			t.Fatalf("entry has %d members: %v", len(e), e)
		}
		for _, k := range []string{"code", "field", "description", "info", "severity", "category"} {
			if e[k] == "" {
				t.Errorf("entry %v lacks %s", e, k)
			}
		}
		byField[e["field"]+"/"+e["code"]] = e
	}
	if e := byField["deliveries.customer.firstName/FIELD_LOCKED"]; e == nil || e["category"] != "APPLICATION" || e["severity"] != "ERROR" {
		t.Errorf("locked entry %v in %s", e, out)
	}
	if e := byField[pathLocationPreference+"/DISALLOWED_COMBINATION"]; e == nil || e["category"] != "DATA" {
		t.Errorf("combination entry %v in %s", e, out)
	}
	if e := byField[pathLocationPreference+"/FIELD_LOCKED"]; e == nil {
		t.Errorf("locked preference entry missing in %s", out)
	}

	_, err = Apply(booked(t), []byte(`{`))
	if b := ProviderErrors(err); len(b.Errors) != 1 || b.Errors[0].Code != CodeMalformedJSON || b.Errors[0].Category != "REQUEST" {
		t.Errorf("malformed: %+v", b)
	}
	if b := ProviderErrors(errors.New("boom")); len(b.Errors) != 1 || b.Errors[0].Code != "INTERNAL_ERROR" || b.Errors[0].Category != "SYSTEM" {
		t.Errorf("plain error: %+v", b)
	}
	if out, _ := json.Marshal(ProviderErrors(nil)); string(out) != `{"errors":[]}` {
		t.Errorf("nil error: %s", out)
	}
	// Every code the package emits has an entry in the code table.
	for code := range codeTable {
		if codeTable[code].kind == nil || codeTable[code].info == "" || codeTable[code].category == "" {
			t.Errorf("code %s incomplete", code)
		}
	}
}
