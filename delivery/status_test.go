package delivery

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if strings.Count(s, old) != 1 {
		t.Fatalf("%q occurs %d times", old, strings.Count(s, old))
	}
	return strings.Replace(s, old, new, 1)
}

func TestTransitions(t *testing.T) {
	legal := map[[2]Status]bool{}
	for _, e := range [][2]Status{
		{StatusRequested, StatusDriverAssigned}, {StatusRequested, StatusCancelled},
		{StatusDriverAssigned, StatusEnrouteToPickup}, {StatusDriverAssigned, StatusRequested}, {StatusDriverAssigned, StatusCancelled},
		{StatusEnrouteToPickup, StatusArrivedAtPickup}, {StatusEnrouteToPickup, StatusRequested}, {StatusEnrouteToPickup, StatusCancelled},
		{StatusArrivedAtPickup, StatusDispatched}, {StatusArrivedAtPickup, StatusRequested}, {StatusArrivedAtPickup, StatusCancelled},
		{StatusDispatched, StatusEnrouteToDropoff}, {StatusDispatched, StatusCancelled},
		{StatusEnrouteToDropoff, StatusDelivered}, {StatusEnrouteToDropoff, StatusFailed}, {StatusEnrouteToDropoff, StatusCancelled},
		{StatusFailed, StatusEnrouteToDropoff}, {StatusFailed, StatusReturned}, {StatusFailed, StatusCancelled},
	} {
		legal[e] = true
	}
	d := booked(t)
	for _, from := range Statuses() {
		for _, to := range Statuses() {
			d.Status = from
			got, err := Transition(d, to)
			switch {
			case legal[[2]Status{from, to}]:
				if err != nil || got.Status != to || d.Status != from {
					t.Errorf("%s → %s: %v", from, to, err)
				}
			case from.Terminal():
				if !errors.Is(err, ErrClosed) {
					t.Errorf("%s → %s: want ErrClosed, got %v", from, to, err)
				}
			default:
				if !errors.Is(err, ErrIllegalTransition) {
					t.Errorf("%s → %s: want ErrIllegalTransition, got %v", from, to, err)
				}
			}
			if from.CanTransition(to) != legal[[2]Status{from, to}] {
				t.Errorf("CanTransition(%s, %s)", from, to)
			}
		}
	}
	d.Status = "LOST"
	if _, err := Transition(d, StatusCancelled); !errors.Is(err, ErrInvalidValue) {
		t.Errorf("unknown current status: %v", err)
	}
	d.Status = StatusRequested
	if _, err := Transition(d, "LOST"); !errors.Is(err, ErrInvalidValue) {
		t.Errorf("unknown target status: %v", err)
	}
}

func TestStatusConditions(t *testing.T) {
	cases := []struct {
		s                          Status
		assigned, dispatched, term bool
	}{
		{StatusRequested, false, false, false},
		{StatusDriverAssigned, true, false, false},
		{StatusEnrouteToPickup, true, false, false},
		{StatusArrivedAtPickup, true, false, false},
		{StatusDispatched, true, true, false},
		{StatusEnrouteToDropoff, true, true, false},
		{StatusFailed, true, true, false},
		{StatusDelivered, true, true, true},
		{StatusReturned, true, true, true},
		{StatusCancelled, false, false, true},
		{"LOST", false, false, false},
	}
	for _, c := range cases {
		if c.s.DriverAssigned() != c.assigned || c.s.Dispatched() != c.dispatched || c.s.Terminal() != c.term || c.s.Valid() == (c.s == "LOST") {
			t.Errorf("%s: assigned %v dispatched %v terminal %v valid %v", c.s, c.s.DriverAssigned(), c.s.Dispatched(), c.s.Terminal(), c.s.Valid())
		}
	}
	for _, s := range Statuses() {
		if !s.Terminal() && !slices.Contains(s.Next(), StatusCancelled) {
			t.Errorf("%s cannot be cancelled", s)
		}
		if s.Terminal() && len(s.Next()) != 0 {
			t.Errorf("terminal %s has successors", s)
		}
	}
}

func TestApplyRejectsUnknownStatus(t *testing.T) {
	d := booked(t)
	d.Status = "LOST"
	_, err := Apply(d, upd(`"customer":{"email":"a@b.cd"}`))
	if cs := codes(err); len(cs) != 1 || cs[0] != "INVALID_STATUS@deliveries.status" {
		t.Fatalf("got %v", cs)
	}
}

func TestStatusIndexMatchesStatuses(t *testing.T) {
	for i, s := range Statuses() {
		if statusIndex(s) != i+1 {
			t.Errorf("statusIndex(%s) = %d, want %d", s, statusIndex(s), i+1)
		}
	}
	if len(statusTable) != len(Statuses())+1 {
		t.Errorf("statusTable has %d rows", len(statusTable))
	}
}
