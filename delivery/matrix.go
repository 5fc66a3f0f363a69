package delivery

// Property types and location preferences of section 2.2.
const (
	PropertyHouse     = "HOUSE"
	PropertyApartment = "APARTMENT"
	PropertyBusiness  = "BUSINESS"
	PropertyOther     = "OTHER"

	LocationFrontDoor         = "FRONT_DOOR"
	LocationBackDoor          = "BACK_DOOR"
	LocationSidePorch         = "SIDE_PORCH"
	LocationBuildingReception = "BUILDING_RECEPTION"
	LocationMailroom          = "MAILROOM_OR_PROPERTY_STAFF"
	LocationGarageDoor        = "GARAGE_DOOR"
	LocationNoPreference      = "NO_PREFERENCE"
)

var (
	propertyTypes       = []string{PropertyHouse, PropertyApartment, PropertyBusiness, PropertyOther}
	locationPreferences = []string{
		LocationFrontDoor, LocationBackDoor, LocationSidePorch, LocationBuildingReception,
		LocationMailroom, LocationGarageDoor, LocationNoPreference,
	}
)

// PropertyTypes returns the allowed propertyType values (a new slice).
func PropertyTypes() []string { return append([]string(nil), propertyTypes...) }

// LocationPreferences returns the allowed locationPreference values, in
// the order of section 2.3 (a new slice).
func LocationPreferences() []string { return append([]string(nil), locationPreferences...) }

// notAllowed holds the cells of section 2.3 marked "Not Allowed"; every
// other pair of known values is "Optional", i.e. allowed.
var notAllowed = map[[2]string]bool{
	{PropertyHouse, LocationBuildingReception}: true,
	{PropertyHouse, LocationMailroom}:          true,
	{PropertyApartment, LocationBackDoor}:      true,
	{PropertyApartment, LocationSidePorch}:     true,
	{PropertyApartment, LocationGarageDoor}:    true,
	{PropertyBusiness, LocationBackDoor}:       true,
	{PropertyBusiness, LocationSidePorch}:      true,
	{PropertyBusiness, LocationGarageDoor}:     true,
}

// Allowed reports whether a delivery may carry this propertyType and
// locationPreference (section 2.3). An empty string stands for null: no
// locationPreference is allowed with any known propertyType (and with
// none), and a null propertyType is not allowed with any locationPreference.
// Unknown values are never allowed.
func Allowed(propertyType, locationPreference string) bool {
	if locationPreference == "" {
		return propertyType == "" || in(propertyType, propertyTypes)
	}
	if propertyType == "" || !in(propertyType, propertyTypes) || !in(locationPreference, locationPreferences) {
		return false
	}
	return !notAllowed[[2]string{propertyType, locationPreference}]
}

func in(v string, set []string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}
