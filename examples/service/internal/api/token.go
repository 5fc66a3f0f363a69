package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// maxTokenForm bounds the token request's body: three short parameters.
const maxTokenForm = 4 << 10

// tokenResponse is RFC 6749 §5.1's success body.
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

// oauthErrorBody is the token endpoint's error body: RFC 6749 §5.2's
// error and error_description, so OAuth client libraries understand it,
// beside the service's common errors list.
type oauthErrorBody struct {
	Error            string     `json:"error"`
	ErrorDescription string     `json:"error_description"`
	Errors           []apiError `json:"errors"`
}

// tokenForm is a decoded token request.
type tokenForm struct {
	GrantType    string
	ClientID     string
	ClientSecret string
}

// formError is a token request that RFC 6749 §5.2 refuses with code.
type formError struct {
	code, field, description string
}

func (e *formError) Error() string { return e.description }

// decodeTokenForm reads an application/x-www-form-urlencoded token request
// (RFC 6749 §4.4.2, client credentials in the body per §2.3.1 allowed).
// A parameter sent twice is invalid_request (§3.2); unknown parameters,
// scope among them, are ignored as §3.2 demands.
func decodeTokenForm(body []byte) (tokenForm, error) {
	values, err := url.ParseQuery(string(body))
	if err != nil {
		return tokenForm{}, &formError{"invalid_request", "body", "The body is not application/x-www-form-urlencoded: " + err.Error() + "."}
	}
	var f tokenForm
	params := []struct {
		name string
		dst  *string
	}{{"grant_type", &f.GrantType}, {"client_id", &f.ClientID}, {"client_secret", &f.ClientSecret}}
	for _, p := range params {
		name, dst := p.name, p.dst
		vs := values[name]
		if len(vs) > 1 {
			return tokenForm{}, &formError{"invalid_request", name, "The parameter " + name + " is sent more than once."}
		}
		if len(vs) == 1 {
			*dst = vs[0]
		}
	}
	if f.GrantType == "" {
		return tokenForm{}, &formError{"invalid_request", "grant_type", "The parameter grant_type is required: grant_type=client_credentials."}
	}
	if f.GrantType != "client_credentials" {
		return tokenForm{}, &formError{"unsupported_grant_type", "grant_type", "Only grant_type=client_credentials is supported, not " + quote(f.GrantType) + "."}
	}
	return f, nil
}

// clientCredentials returns the client id and secret of a token request:
// from HTTP Basic (each part form-urlencoded, RFC 6749 §2.3.1) or from the
// form, never both (§2.3).
func clientCredentials(r *http.Request, f tokenForm) (id, secret string, basic bool, err error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, payload, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Basic") {
			return "", "", false, &formError{"invalid_client", "Authorization", "The token endpoint takes client credentials by HTTP Basic or in the form, not by " + quote(scheme) + "."}
		}
		if f.ClientID != "" || f.ClientSecret != "" {
			return "", "", true, &formError{"invalid_request", "Authorization", "Client credentials are sent both by HTTP Basic and in the form; send them once."}
		}
		raw, derr := base64.StdEncoding.DecodeString(strings.TrimSpace(payload))
		if derr != nil {
			return "", "", true, &formError{"invalid_client", "Authorization", "The Basic credentials are not base64."}
		}
		u, p, ok := strings.Cut(string(raw), ":")
		if !ok {
			return "", "", true, &formError{"invalid_client", "Authorization", "The Basic credentials lack the ':' between client id and secret."}
		}
		if id, err = url.QueryUnescape(u); err == nil {
			secret, err = url.QueryUnescape(p)
		}
		if err != nil {
			return "", "", true, &formError{"invalid_client", "Authorization", "The Basic credentials are not form-urlencoded."}
		}
		return id, secret, true, nil
	}
	if f.ClientID == "" || f.ClientSecret == "" {
		return "", "", false, &formError{"invalid_client", "client_id", "Client credentials are required: HTTP Basic, or client_id and client_secret in the form."}
	}
	return f.ClientID, f.ClientSecret, false, nil
}

// createToken is POST /oauth/v1/token: the client credentials grant. A
// wrong client id or secret counts as a failed authentication of the
// client id and of the client's address; one with none left is refused
// (429) before its body is read, the other before its secret is checked.
func (s *server) createToken(w http.ResponseWriter, r *http.Request, c *call) {
	now := s.now()
	addr := addressKey(s.clientAddress(r))
	if e := s.throttled(addr, "", "this address", now); e != nil {
		s.refuseThrottled(w, c, e)
		return
	}
	body, berr := s.readBody(r, "application/x-www-form-urlencoded", maxTokenForm)
	if berr != nil {
		s.oauthRefuseBody(w, c, berr)
		return
	}
	f, err := decodeTokenForm(body)
	if err != nil {
		s.oauthFail(w, c, err, false)
		return
	}
	id, secret, basic, err := clientCredentials(r, f)
	if err != nil {
		s.oauthFail(w, c, err, basic)
		return
	}
	if e := s.throttled(clientKey(id), "client_id", "this client id", now); e != nil {
		s.refuseThrottled(w, c, e)
		return
	}
	client, err := s.st.Client(r.Context(), id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, c, err)
		return
	}
	// The hash is compared even for an unknown client, in constant time,
	// so that timing tells nothing about which ids exist.
	sum := sha256.Sum256([]byte(secret))
	if subtle.ConstantTimeCompare(sum[:], client.SecretHash) != 1 || err != nil {
		s.authFailures.fail(now, addr, clientKey(id))
		s.oauthFail(w, c, &formError{"invalid_client", "client_id", "The client id or secret is wrong."}, basic)
		return
	}
	consumer := r.Header.Get(ConsumerHeader)
	if consumer == "" {
		s.oauthFail(w, c, &formError{"invalid_request", ConsumerHeader, "Every request carries the header " + ConsumerHeader + " with the tenant's consumer id."}, basic)
		return
	}
	if consumer != client.TenantID {
		s.setTenant(r, c, client.TenantID)
		s.oauthFail(w, c, &formError{"unauthorized_client", ConsumerHeader, "The client does not belong to the consumer named in " + ConsumerHeader + "."}, basic)
		return
	}
	s.setTenant(r, c, client.TenantID)
	if !s.allow(w, r.Context(), c, s.limiter) {
		return
	}
	token, err := randomSecret()
	if err != nil {
		s.internal(w, c, err)
		return
	}
	hash := sha256.Sum256([]byte(token))
	t := store.Token{Hash: hash[:], TenantID: client.TenantID, ClientID: client.ID, Expires: now.Add(s.lifetime)}
	if err := s.st.PutToken(r.Context(), t); err != nil {
		s.internal(w, c, err)
		return
	}
	s.tokens.put(hash, t.TenantID, recheckAt(t.Expires, now), now)
	w.Header().Set("Pragma", "no-cache") // RFC 6749 §5.1; Cache-Control: no-store is on every JSON answer
	writeJSON(w, http.StatusOK, tokenResponse{AccessToken: token, TokenType: "Bearer", ExpiresIn: int64(s.lifetime.Seconds())})
}

// oauthRefuseBody answers a token request body that readBody refused:
// its status (415 for another media type) and entry, with RFC 6749
// §5.2's invalid_request beside them.
func (s *server) oauthRefuseBody(w http.ResponseWriter, c *call, b *bodyRefusal) {
	e := b.entry
	e.Info, e.Severity, e.Category = "RFC 6749 §5.2 error invalid_request", severityError, categoryRequest
	writeJSON(w, b.status, oauthErrorBody{Error: "invalid_request", ErrorDescription: e.Description, Errors: []apiError{e}})
}

// oauthFail answers a refused token request as RFC 6749 §5.2 says: 400,
// or 401 with a Basic challenge for invalid_client, 403 for a client used
// with another consumer id.
func (s *server) oauthFail(w http.ResponseWriter, c *call, err error, basic bool) {
	var fe *formError
	if !errors.As(err, &fe) {
		s.internal(w, c, err)
		return
	}
	status := http.StatusBadRequest
	switch fe.code {
	case "invalid_client":
		status = http.StatusUnauthorized
		w.Header().Set("WWW-Authenticate", `Basic realm="`+realm+`"`)
	case "unauthorized_client":
		status = http.StatusForbidden
	}
	writeJSON(w, status, oauthErrorBody{Error: fe.code, ErrorDescription: fe.description, Errors: []apiError{{
		Code: strings.ToUpper(fe.code), Field: fe.field, Description: fe.description,
		Info: "RFC 6749 §5.2 error " + fe.code, Severity: severityError, Category: categorySecurity,
	}}})
}
