// Azure Blob credentials the way the az CLI and SDKs take them, in this order:
// AZURE_STORAGE_CONNECTION_STRING (parsed by @azure/storage-blob: AccountKey, SharedAccessSignature,
// BlobEndpoint, UseDevelopmentStorage=true), AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or
// AZURE_STORAGE_SAS_TOKEN, else AZURE_STORAGE_ACCOUNT alone with @azure/identity's
// DefaultAzureCredential (environment, workload identity, managed identity, az / azd / PowerShell
// sign-in). @azure/identity is imported only then. Keys and tokens never appear in a message.
import type { TokenCredential } from '@azure/core-auth';
import { SimgrepError } from '../../errors.js';

export interface AzureSettings {
  connectionString?: string;
  account?: string;
  /** The Blob service endpoint (AZURE_STORAGE_BLOB_ENDPOINT), else https://ACCOUNT.blob.core.windows.net. */
  endpoint?: string;
  accountKey?: string;
  sasToken?: string;
  credential?: TokenCredential;
  credentialSource: string;
  credentialHint: string;
}

type Env = Record<string, string | undefined>;

/** The scope of a token for Azure Storage. */
const STORAGE_SCOPE = 'https://storage.azure.com/.default';

export async function resolveAzureSettings(rawEnv: Env): Promise<AzureSettings> {
  const env = (k: string) => rawEnv[k] || undefined;
  const conn = env('AZURE_STORAGE_CONNECTION_STRING');
  if (conn) {
    return {
      connectionString: conn,
      credentialSource: 'AZURE_STORAGE_CONNECTION_STRING',
      credentialHint: 'check AccountName and AccountKey (or SharedAccessSignature) in AZURE_STORAGE_CONNECTION_STRING',
    };
  }
  const account = env('AZURE_STORAGE_ACCOUNT');
  if (!account) {
    throw new SimgrepError('REMOTE_CREDENTIALS', 'no Azure storage account given: set AZURE_STORAGE_CONNECTION_STRING, or AZURE_STORAGE_ACCOUNT (with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN, or alone to sign in with Microsoft Entra ID: managed identity, workload identity, az login)');
  }
  const endpoint = env('AZURE_STORAGE_BLOB_ENDPOINT');
  const key = env('AZURE_STORAGE_KEY') ?? env('AZURE_STORAGE_ACCESS_KEY');
  if (key) {
    return { account, endpoint, accountKey: key, credentialSource: 'AZURE_STORAGE_ACCOUNT / AZURE_STORAGE_KEY', credentialHint: 'check AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY' };
  }
  const sas = env('AZURE_STORAGE_SAS_TOKEN');
  if (sas) {
    return {
      account, endpoint, sasToken: sas.replace(/^\?/, ''),
      credentialSource: 'AZURE_STORAGE_ACCOUNT / AZURE_STORAGE_SAS_TOKEN', credentialHint: 'check AZURE_STORAGE_SAS_TOKEN (its expiry and permissions: read, list)',
    };
  }
  const { DefaultAzureCredential } = await import('@azure/identity');
  const credential = new DefaultAzureCredential();
  try {
    // Asked once here, so that a missing sign-in is this source's message, not one per blob.
    await credential.getToken(STORAGE_SCOPE);
  } catch (e) {
    throw new SimgrepError('REMOTE_CREDENTIALS',
      `AZURE_STORAGE_ACCOUNT=${account} is set without a key or SAS token, and Microsoft Entra ID sign-in (DefaultAzureCredential: environment, workload identity, managed identity, Azure CLI, Azure Developer CLI, Azure PowerShell) found no credential: ${summary(e)}; sign in (az login), or set AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN`, { cause: e });
  }
  return {
    account, endpoint, credential,
    credentialSource: 'Microsoft Entra ID (DefaultAzureCredential)',
    credentialHint: `check which identity signed in (AZURE_CLIENT_ID, the managed identity, az account show): it must belong to the account's tenant and have a data role such as "Storage Blob Data Reader" on account "${account}" or its container`,
  };
}

/** The first lines of an identity error (DefaultAzureCredential's lists every credential it tried). */
function summary(e: unknown): string {
  const text = ((e as Error)?.message ?? String(e)).replace(/\s+/g, ' ').trim();
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
