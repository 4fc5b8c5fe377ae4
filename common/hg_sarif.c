/* SPDX-License-Identifier: MIT */
/* SARIF pieces `report` and `scan` share; see hg_sarif.h. */
#include "hg_sarif.h"

#include <string.h>

#include "hg_config.h"
#include "hg_hazards.h"
#include "hg_json.h"

void hg_sarif_head(FILE *out)
{
	fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
	      "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
	      "\"name\":\"hipgrain\",\"version\":\"" HG_VERSION "\","
	      "\"rules\":[",
	      out);
}

/* A file name as a URI reference: absolute paths get file://, and bytes a
 * URI cannot hold are percent-encoded. */
void hg_sarif_uri(FILE *out, const char *path)
{
	static const char ok[] = "-._~/!$'()*+,;=:@";

	fputs(path[0] == '/' ? "\"file://" : "\"", out);
	for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || (*s && strchr(ok, *s)))
			fputc(*s, out);
		else
			fprintf(out, "%%%02X", *s);
	}
	fputc('"', out);
}

void hg_sarif_rule(FILE *out, const char *id, const char *summary,
		   const char *fix, const char *level)
{
	const struct hg_hazard *h = hg_hazard_find(id);

	fputs("{\"id\":", out);
	hg_json_str(out, id);
	fputs(",\"shortDescription\":{\"text\":", out);
	hg_json_str(out, summary);
	fputs("},\"fullDescription\":{\"text\":", out);
	hg_json_str(out, h ? h->text : summary);
	fputs("},\"help\":{\"text\":\"", out);
	hg_json_chars(out, h ? h->text : summary);
	fputs("\\n\\nExample:\\n", out);
	hg_json_chars(out, h ? h->example : "");
	fputs("\\n\\nFix: ", out);
	hg_json_chars(out, h && h->fix[0] ? h->fix : fix);
	fputs("\\n\\nSee hipgrain-hazards(7).\"},\"defaultConfiguration\":"
	      "{\"level\":",
	      out);
	hg_json_str(out, level);
	fputs("}}", out);
}
