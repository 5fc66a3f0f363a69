package delivery

import (
	"testing"
)

// benchUpdates are typical small updates (a customer edit, a preference
// change, a slot move, a coordinate fix), each applied to the booked
// fixture; every one succeeds, so the benchmark covers decode, merge,
// lock checks and full validation of the result.
var benchUpdates = [][]byte{
	upd(`"customer":{"email":"ada.lovelace@example.org","phone":{"number":"5559876543"}}`),
	upd(`"deliveryDetails":{"propertyDetails":{"locationPreference":"BACK_DOOR","gateCode":"4321"}}`),
	upd(`"requestedMinDeliverySlotTime":"2026-11-22T11:00:00.000Z","requestedMaxDeliverySlotTime":"2026-11-22T13:00:00.000Z"`),
	upd(`"deliveryDetails":{"latLong":{"lat":36.3731,"lng":-94.2091}},"addOnServices":{"returnable":true}`),
}

// BenchmarkApply measures one update end to end: parse, decode with
// presence, merge into a deep copy, lock checks and validation.
func BenchmarkApply(b *testing.B) {
	d := booked(b)
	for _, u := range benchUpdates {
		if _, err := Apply(d, u); err != nil {
			b.Fatalf("%s: %v", u, err)
		}
	}
	b.ReportAllocs()
	i := 0
	cpu := cpuNanos()
	for b.Loop() {
		if _, err := Apply(d, benchUpdates[i%len(benchUpdates)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	reportRates(b, cpuNanos()-cpu)
}

// reportRates adds wall-clock and CPU-time throughput. With -cpu 1 the
// process CPU time is the time of the one core doing the work (plus a
// little GC and runtime housekeeping), which is what "updates per second on
// one core" means on a machine shared with other jobs.
func reportRates(b *testing.B, cpu int64) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
	if cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(b.N)/(float64(cpu)/1e9), "updates/cpu-s")
	}
}

// BenchmarkApplyRejected measures an update refused for a locked field and
// a disallowed combination (the error path builds paths and messages).
func BenchmarkApplyRejected(b *testing.B) {
	d := inStatus(b, StatusDispatched)
	body := upd(`"customer":{"firstName":"Augusta"},"deliveryDetails":{"propertyDetails":{"locationPreference":"MAILROOM_OR_PROPERTY_STAFF"}}`)
	b.ReportAllocs()
	cpu := cpuNanos()
	for b.Loop() {
		if _, err := Apply(d, body); err == nil {
			b.Fatal("accepted")
		}
	}
	reportRates(b, cpuNanos()-cpu)
}

// BenchmarkBook measures decoding and validating a full booking.
func BenchmarkBook(b *testing.B) {
	body := []byte(bookingJSON)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Book("DLV-1", body); err != nil {
			b.Fatal(err)
		}
	}
}
