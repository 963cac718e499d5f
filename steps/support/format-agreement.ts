import { sectionText } from './agent-sections.ts';
import { viewAgentText } from './agent-text-view.ts';
import { asNumber, jsonField, textGives } from './snapshot-values.ts';
import { childNamed, parseXmlDocument } from './xml-document.ts';

/**
 * The values MON-FORMATS-SAME-SNAPSHOT names, each as (XML element, XML attribute, JSON field,
 * PBX section of the agent text).
 */
const SHARED_VALUES = [
  ['accounts', 'total', 'accountsTotal', 'pbx_accounts'],
  ['accounts', 'admin', 'accountsAdmin', 'pbx_accounts'],
  ['accounts', 'active', 'accountsActive', 'pbx_accounts'],
  ['accounts', 'available', 'accountsAvailable', 'pbx_accounts'],
  ['accounts', 'ringing', 'accountsRinging', 'pbx_accounts'],
  ['accounts', 'unavailable', 'accountsUnavailable', 'pbx_accounts'],
  ['channels', 'max', 'channelsMax', 'pbx_channels'],
  ['database', 'databaseSize', 'databaseSize', 'pbx_database'],
  ['database', 'cdrSize', 'cdrSize', 'pbx_database'],
] as const;

/**
 * Where agent text, XML and JSON of one snapshot disagree on account counts, maximum channels
 * and database sizes; an empty list when they agree. The agent text is checked without a line
 * grammar: its section must carry the JSON's value.
 */
export function formatDisagreements(agentText: string, xmlText: string, jsonText: string): string[] {
  const problems: string[] = [];
  const xml = parseXmlDocument(xmlText);
  if (!xml.ok) return [`XML: ${xml.error}`];
  const json: unknown = JSON.parse(jsonText);
  const view = viewAgentText(agentText);
  for (const [element, attribute, field, section] of SHARED_VALUES) {
    const jsonValue = asNumber(jsonField(json, field));
    const xmlValue = asNumber(childNamed(xml.root, element)?.attributes[attribute]);
    if (jsonValue === undefined) {
      problems.push(`JSON ${field} is missing or not a number`);
      continue;
    }
    if (xmlValue !== jsonValue)
      problems.push(`XML ${element}/@${attribute} = ${xmlValue}, JSON ${field} = ${jsonValue}`);
    const text = sectionText(view, section);
    if (text === undefined) problems.push(`agent text has no section <<<${section}>>>`);
    else if (!textGives(text, jsonValue))
      problems.push(`agent text <<<${section}>>> does not give ${field} = ${jsonValue}`);
  }
  return problems;
}
