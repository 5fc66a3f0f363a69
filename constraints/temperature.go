package constraints

import (
	"encoding/json"
	"fmt"
)

// Temperature is the temperature class a pallet must travel in.
type Temperature int

// The temperature classes, ordered from the trailer's door towards the
// refrigeration unit at the nose: in a multi-temperature reefer FROZEN sits
// at the nose, AMBIENT nearest the door.
const (
	Ambient Temperature = iota
	Chilled
	Frozen
)

// Temperatures lists every class in order.
var Temperatures = []Temperature{Ambient, Chilled, Frozen}

var temperatureNames = [...]string{"AMBIENT", "CHILLED", "FROZEN"}

// String returns the class's JSON name, AMBIENT, CHILLED or FROZEN.
func (t Temperature) String() string {
	if t >= 0 && int(t) < len(temperatureNames) {
		return temperatureNames[t]
	}
	return fmt.Sprintf("Temperature(%d)", int(t))
}

// Valid reports whether t is one of the defined classes.
func (t Temperature) Valid() bool { return t >= Ambient && t <= Frozen }

// ParseTemperature reads a class name.
func ParseTemperature(s string) (Temperature, error) {
	for i, n := range temperatureNames {
		if n == s {
			return Temperature(i), nil
		}
	}
	return 0, fmt.Errorf("unknown temperature class %q (want AMBIENT, CHILLED or FROZEN)", s)
}

// MarshalJSON writes the class name.
func (t Temperature) MarshalJSON() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("constraints: cannot marshal %v", t)
	}
	return json.Marshal(t.String())
}

// UnmarshalJSON reads a class name.
func (t *Temperature) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("temperature class must be a string: %s", b)
	}
	v, err := ParseTemperature(s)
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// EquipmentKind is the kind of trailer body with respect to temperature.
type EquipmentKind int

// The equipment kinds.
const (
	// DryVan carries AMBIENT pallets only.
	DryVan EquipmentKind = iota
	// Reefer is a single-temperature refrigerated trailer: it is set to one
	// class per trip and carries only pallets of that class.
	Reefer
	// MultiTempReefer is divided by movable bulkheads, in whole pallet
	// rows, into up to MaxZones zones per trip, each set to one class, with
	// the colder zones towards the nose (FROZEN at the nose, by the
	// refrigeration unit). The bulkheads open; pallets come off through
	// the trailer's doors (Door): the rear door, and side doors that reach
	// the zones towards the nose without going past the warmer zones.
	MultiTempReefer
)

var equipmentNames = [...]string{"DRY_VAN", "REEFER", "MULTI_TEMP_REEFER"}

// String returns the kind's JSON name.
func (k EquipmentKind) String() string {
	if k >= 0 && int(k) < len(equipmentNames) {
		return equipmentNames[k]
	}
	return fmt.Sprintf("EquipmentKind(%d)", int(k))
}

// Valid reports whether k is a defined kind.
func (k EquipmentKind) Valid() bool { return k >= DryVan && k <= MultiTempReefer }

// MarshalJSON writes the kind's name.
func (k EquipmentKind) MarshalJSON() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("constraints: cannot marshal %v", k)
	}
	return json.Marshal(k.String())
}

// UnmarshalJSON reads a kind's name.
func (k *EquipmentKind) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("equipment kind must be a string: %s", b)
	}
	for i, n := range equipmentNames {
		if n == s {
			*k = EquipmentKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown equipment kind %q (want DRY_VAN, REEFER or MULTI_TEMP_REEFER)", s)
}

// Equipment describes what a trailer type can do with temperature.
type Equipment struct {
	Kind EquipmentKind `json:"kind"`
	// MaxZones is the number of zones a multi-temperature reefer can be
	// split into (2 or 3). Zero means 3 for MULTI_TEMP_REEFER and 1
	// otherwise.
	MaxZones int `json:"maxZones,omitempty"`
}

// Zones returns the number of zones the equipment can hold on one trip.
func (e Equipment) Zones() int {
	if e.Kind != MultiTempReefer {
		return 1
	}
	if e.MaxZones == 0 {
		return 3
	}
	return e.MaxZones
}

// Carries reports whether the equipment can carry class t at all.
func (e Equipment) Carries(t Temperature) bool {
	switch e.Kind {
	case DryVan:
		return t == Ambient
	case Reefer, MultiTempReefer:
		return t.Valid()
	}
	return false
}

// CarriesTogether reports whether one trip can carry all the given classes
// at once: a dry van only AMBIENT, a reefer one class, a multi-temperature
// reefer up to Zones() distinct classes.
func (e Equipment) CarriesTogether(classes []Temperature) bool {
	seen := map[Temperature]bool{}
	for _, t := range classes {
		if !e.Carries(t) {
			return false
		}
		seen[t] = true
	}
	return len(seen) <= e.Zones()
}
