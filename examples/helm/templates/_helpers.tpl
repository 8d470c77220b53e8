{{/* Named templates: Go template text, not YAML (admission-ls skips .tpl files). */}}
{{- define "pod-policies.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}
