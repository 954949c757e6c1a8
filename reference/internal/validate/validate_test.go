package validate

import "testing"

// TestParseCause: cause messages as field.Error.ErrorBody renders them
// (k8s.io/apimachinery/pkg/util/validation/field/errors.go) split into wasched's type, value and
// detail.
func TestParseCause(t *testing.T) {
	cases := []struct {
		reason, msg        string
		typ, value, detail string
	}{
		{"FieldValueInvalid", "Invalid value: 0: must be greater than or equal to 1", "Invalid", "0", "must be greater than or equal to 1"},
		{"FieldValueInvalid", `Invalid value: "a_b": a lowercase RFC 1123 subdomain must consist of ...`, "Invalid", `"a_b"`, "a lowercase RFC 1123 subdomain must consist of ..."},
		{"FieldValueInvalid", `Invalid value: {"gang":{"minCount":2}}: field is immutable`, "Invalid", `{"gang":{"minCount":2}}`, "field is immutable"},
		{"FieldValueInvalid", `Invalid value: ["a","b"]`, "Invalid", `["a","b"]`, ""},
		{"FieldValueInvalid", "Invalid value: must be set", "Invalid", "", "must be set"},
		{"FieldValueRequired", "Required value", "Required", "", ""},
		{"FieldValueRequired", "Required value: must specify one of: `basic`, `gang`", "Required", "", "must specify one of: `basic`, `gang`"},
		{"FieldValueForbidden", "Forbidden: may not be set when the gate is off", "Forbidden", "", "may not be set when the gate is off"},
		{"FieldValueNotSupported", `Unsupported value: "Sometimes": supported values: "Never", "PreemptLowerPriority"`, "NotSupported", `"Sometimes"`, `supported values: "Never", "PreemptLowerPriority"`},
		{"FieldValueDuplicate", `Duplicate value: "workers"`, "Duplicate", `"workers"`, ""},
		{"FieldValueTooMany", "Too many: 9: must have at most 8 items", "TooMany", "9", "must have at most 8 items"},
		{"FieldValueNotFound", `Not found: "ghost"`, "Invalid", `"ghost"`, `not found: "ghost"`},
		{"FieldValueTooLong", "Too long: may not be more than 63 bytes", "Invalid", "", "may not be more than 63 bytes"},
		{"FieldValueTooLong", "Too long", "Invalid", "", "too long"},
		{"InternalError", "Internal error: boom", "InternalError", "", "boom"},
	}
	for _, c := range cases {
		typ, value, detail := ParseCause(c.reason, c.msg)
		if typ != c.typ || value != c.value || detail != c.detail {
			t.Errorf("ParseCause(%s, %q) = (%q, %q, %q), want (%q, %q, %q)", c.reason, c.msg, typ, value, detail, c.typ, c.value, c.detail)
		}
	}
}

// TestAdmissionField: the Priority plugin's Forbidden messages name the field wasched reports.
func TestAdmissionField(t *testing.T) {
	for msg, want := range map[string]string{
		`podgroups.scheduling.k8s.io "g" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod group spec; priority admission controller computed Never from the given PriorityClass name`: "spec.preemptionPolicy",
		`pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name`:                                                            "spec.priority",
		`podgroups.scheduling.k8s.io "g" is forbidden: priority set in the pod group (5) must match the priority computed (1000) based on the priority class set in the spec`:                                                              "spec.priority",
		`pods "p" is forbidden: no PriorityClass with name ghost was found`: "spec.priorityClassName",
		`something else is forbidden`:                                       "",
	} {
		if got := admissionField(msg); got != want {
			t.Errorf("admissionField(%q) = %q, want %q", msg, got, want)
		}
	}
}

func TestUnknownFieldsAndDecodeField(t *testing.T) {
	msg := `Job in version "v1" cannot be handled as a Job: strict decoding error: unknown field "spec.paralellism", unknown field "spec.template.spec.containers[0].resources.requets"`
	got := unknownFields(msg)
	want := []string{"spec.paralellism", "spec.template.spec.containers[0].resources.requets"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("unknownFields = %q, want %q", got, want)
	}
	if f, ok := decodeField(`Workload in version "v1beta1" cannot be handled as a Workload: json: cannot unmarshal number 99999999999 into Go struct field GangSchedulingPolicy.spec.podGroupTemplates.schedulingPolicy.gang.minCount of type int32`); !ok || f != "spec.podGroupTemplates.schedulingPolicy.gang.minCount" {
		t.Errorf("decodeField = %q, %v", f, ok)
	}
	if _, ok := decodeField("namespaces \"x\" not found"); ok {
		t.Error("decodeField accepted a message that is not a decoding error")
	}
}
