{{/* Names and labels shared by every object of the chart. */}}
{{- define "otklik.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "otklik.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "otklik.labels" -}}
{{ include "otklik.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "otklik.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "otklik.secretName" -}}
{{- .Values.existingSecret | default (include "otklik.fullname" .) -}}
{{- end -}}

{{/* The environment of the app and the migration Job: the ConfigMap and the Secret. */}}
{{- define "otklik.envFrom" -}}
- configMapRef:
    name: {{ include "otklik.fullname" . }}
- secretRef:
    name: {{ include "otklik.secretName" . }}
{{- end -}}
