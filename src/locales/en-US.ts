// The console's messages are the shared catalogue (schemas/locales), the same words the server uses.
import { catalogues } from '../../schemas/kit/catalogue';

export default catalogues['en-US'];
