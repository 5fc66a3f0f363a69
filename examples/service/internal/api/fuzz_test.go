package api

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/haulplan/haulplan/delivery"
)

// FuzzDecodeTokenForm: the token form reader never panics, and what it
// accepts agrees with net/url: grant_type client_credentials, each
// parameter once, the values as url.ParseQuery reads them.
func FuzzDecodeTokenForm(f *testing.F) {
	for _, s := range []string{
		"grant_type=client_credentials",
		"grant_type=client_credentials&client_id=a&client_secret=b%2Bc",
		"grant_type=client_credentials&grant_type=x",
		"grant_type=password", "", "%zz", "a=b;c=d", "grant_type=client_credentials&scope=x+y",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		form, err := decodeTokenForm(body)
		if err != nil {
			var fe *formError
			if !asFormError(err, &fe) || fe.code == "" || fe.description == "" {
				t.Fatalf("an error that is not a form error: %v", err)
			}
			return
		}
		values, perr := url.ParseQuery(string(body))
		if perr != nil {
			t.Fatalf("accepted what url.ParseQuery rejects: %q", body)
		}
		if form.GrantType != "client_credentials" || len(values["grant_type"]) != 1 {
			t.Fatalf("accepted grant %q from %q", form.GrantType, body)
		}
		if len(values["client_id"]) > 1 || len(values["client_secret"]) > 1 ||
			form.ClientID != values.Get("client_id") || form.ClientSecret != values.Get("client_secret") {
			t.Fatalf("read %+v from %q, url.ParseQuery reads %v", form, body, values)
		}
	})
}

func asFormError(err error, fe **formError) bool {
	e, ok := err.(*formError)
	*fe = e
	return ok
}

// FuzzDecodeStatusBody: the status body reader never panics; what it
// accepts is a known status that encoding/json reads from the body too,
// and every refusal lists at least one error with a code and a path.
func FuzzDecodeStatusBody(f *testing.F) {
	for _, s := range []string{
		`{"status":"DRIVER_ASSIGNED"}`, `{"status":"LOST"}`, `{"status":null}`, `{}`, `[]`, `{"status":1}`,
		`{"status":"DISPATCHED","status":"DELIVERED"}`, `{"status":"CANCELLED","x":1}`, `{"status":"DELIVERED"} x`, `{"st`,
		`{"status":"\u0044ELIVERED"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		status, errs := decodeStatusBody(body)
		if len(errs) > 0 {
			for _, e := range errs {
				if e.Code == "" || e.Field == "" || e.Description == "" {
					t.Fatalf("an incomplete error %+v for %q", e, body)
				}
			}
			return
		}
		if !status.Valid() {
			t.Fatalf("accepted the unknown status %q from %q", status, body)
		}
		var oracle struct {
			Status *string `json:"status"`
		}
		if err := json.Unmarshal(body, &oracle); err != nil || oracle.Status == nil || delivery.Status(*oracle.Status) != status {
			t.Fatalf("accepted %q from %q; encoding/json reads %v (%v)", status, body, oracle.Status, err)
		}
	})
}
